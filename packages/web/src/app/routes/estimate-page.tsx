import { EstimationTool } from '../../features/estimations/components/estimation-tool';

export function EstimatePage() {
  return (
    <>
      <h1 className="h3">Estimate biological variation from raw results</h1>
      <EstimationTool />
    </>
  );
}
