import { AboutContent } from '../../components/site/about-content';

export function AboutPage() {
  return <AboutContent />;
}
