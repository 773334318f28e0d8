import { useSiteInfo } from '../api/get-site-info';

/** The data-use notice and citation format of the home page (spec section 1), from the server's configuration. */
export function DataUseNotice() {
  const { data } = useSiteInfo();
  if (!data) return null;
  return (
    <section aria-labelledby="data-use" className="card card-body bg-light mt-4">
      <h2 id="data-use" className="h6">
        Use of the data
      </h2>
      <p className="small mb-2">{data.data_use_notice}</p>
      <p className="small mb-0">
        Please cite the database as: <cite>{data.citation}</cite>
      </p>
    </section>
  );
}
