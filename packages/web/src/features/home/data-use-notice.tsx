/** The data-use notice and citation format of the home page (spec section 1). */
export const CITATION_TEXT =
  'Aarsand AK, Fernandez-Calle P, Webster C, Coskun A, Gonzales-Lao E, Diaz-Garzon J, Jonker N, Simon M, ' +
  'Braga F, Perich C, Boned B, Marques-Garcia F, Carobene A, Aslan B, Sezer E, Bartlett WA, Sandberg S. ' +
  'The EFLM Biological Variation Database. https://biologicalvariation.eu/ [time of access].';

export function DataUseNotice() {
  return (
    <section aria-labelledby="data-use" className="card card-body bg-light mt-4">
      <h2 id="data-use" className="h6">
        Use of the data
      </h2>
      <p className="small mb-2">
        The content of this database is copyright of the European Federation of Clinical Chemistry and
        Laboratory Medicine (EFLM). It may not be distributed or commercially exploited without the written
        permission of the EFLM.
      </p>
      <p className="small mb-0">
        Please cite the database as: <cite>{CITATION_TEXT}</cite>
      </p>
    </section>
  );
}
