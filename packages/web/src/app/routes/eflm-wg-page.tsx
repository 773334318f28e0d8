import { ContentPage } from '../../features/content/components/content-page';

export function EflmWgPage() {
  return <ContentPage slug="eflm-wg" />;
}
