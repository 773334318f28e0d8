import { ContentPage } from '../../features/content/components/content-page';

export function BackgroundPage() {
  return <ContentPage slug="background" />;
}
