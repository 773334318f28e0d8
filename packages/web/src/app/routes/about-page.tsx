import { ContentPage } from '../../features/content/components/content-page';

export function AboutPage() {
  return <ContentPage slug="about" />;
}
