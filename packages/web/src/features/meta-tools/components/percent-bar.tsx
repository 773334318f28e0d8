/**
 * A Bootstrap 5.3 progress bar with the role and name on the outer element, where assistive
 * technology (and axe) look for them; react-bootstrap's puts its props on a different element.
 */
export function PercentBar({
  percent,
  label,
  variant,
  animated = false,
  height,
}: {
  percent: number;
  label: string;
  variant?: 'success' | 'danger' | 'info' | undefined;
  animated?: boolean;
  height?: string;
}) {
  const classes = [
    'progress-bar',
    variant ? `bg-${variant}` : '',
    animated ? 'progress-bar-striped progress-bar-animated' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      style={height ? { height } : undefined}
    >
      <div className={classes} style={{ width: `${percent}%` }}>
        {percent}%
      </div>
    </div>
  );
}
