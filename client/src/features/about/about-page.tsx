import { AboutContent } from '../../components/site/about-content';
import { usePageTitle } from '../../lib/use-page-title';

export function AboutPage() {
  usePageTitle('About', { canonical: true });
  return <AboutContent />;
}
