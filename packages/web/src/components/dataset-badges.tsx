import Badge from 'react-bootstrap/Badge';

/** The flag texts of spec section 4. */
export const ReviewedBadge = ({ value }: { value: number }) =>
  value === 1 ? (
    <Badge bg="success">Reviewed</Badge>
  ) : (
    <Badge bg="warning" text="dark">
      Not Reviewed
    </Badge>
  );

export const PublishedBadge = ({ value }: { value: number }) =>
  value === 1 ? (
    <Badge bg="success">Published on Website</Badge>
  ) : (
    <Badge bg="secondary">Not Published on Website</Badge>
  );

export const IncludedBadge = ({ value }: { value: number }) =>
  value === 1 ? (
    <Badge bg="success">Included in Meta-Analysis</Badge>
  ) : (
    <Badge bg="warning" text="dark">
      Not Included in Meta-Analysis
    </Badge>
  );

export const HealthyText = ({ value }: { value: number }) => (
  <>{value === 1 ? 'Healthy Population' : 'Non-Healthy Population'}</>
);

export const GradeBadge = ({ grade }: { grade: string }) => {
  const bg =
    grade === 'A'
      ? 'success'
      : grade === 'B'
        ? 'info'
        : grade === 'C'
          ? 'warning'
          : grade === 'D'
            ? 'danger'
            : 'secondary';
  return (
    <Badge
      bg={bg}
      text={bg === 'warning' || bg === 'info' ? 'dark' : undefined}
      title={`BIVAC grade ${grade}`}
    >
      {grade}
    </Badge>
  );
};

export const yesNo = (v: number) => (v === 1 ? 'Yes' : 'No');
