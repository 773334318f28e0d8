import { ContentPage } from '../../features/content/components/content-page';

export function DisclaimerPage() {
  return <ContentPage slug="disclaimer" />;
}
