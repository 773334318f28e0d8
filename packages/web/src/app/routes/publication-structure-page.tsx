import { ContentPage } from '../../features/content/components/content-page';

export function PublicationStructurePage() {
  return <ContentPage slug="publication_structure" />;
}
