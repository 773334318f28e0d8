import { EstimationTool } from '../../features/estimation/components/estimation-tool';

export function EstimatePage() {
  return (
    <>
      <h1 className="h3">Estimate biological variation from raw results</h1>
      <EstimationTool />
    </>
  );
}
