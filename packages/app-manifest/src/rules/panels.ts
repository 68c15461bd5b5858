import type { ReportIssue } from '../issues.ts';
import type { Panel } from '../schema.ts';
import { reportDuplicates } from './duplicates.ts';

// The admin serves a panel as its markup plus at most one script and one style element, each
// allowed by its hash (decision 0048). Markup with its own <script> or <style> would be blocked
// in the frame, and a script or style holding its closing tag would end its element early, so
// each is refused here with where it belongs.
const CONTENT_RULES = [
  ['html', /<script/i, 'the markup holds a <script> element; put the panel script in "script"'],
  ['html', /<style/i, 'the markup holds a <style> element; put the panel style in "style"'],
  [
    'script',
    /<\/script|<!--/i,
    'the script holds "</script" or "<!--", which the HTML parser reads as markup',
  ],
  ['style', /<\/style/i, 'the style holds "</style", which would end it early'],
] as const;

/** Panel ids, and markup, script and style each where the admin can allow it. */
export function checkPanels(panels: readonly Panel[], report: ReportIssue): void {
  reportDuplicates(
    panels.map((panel) => panel.id),
    (index) => `/admin/panels/${index}/id`,
    'panel',
    report,
  );
  panels.forEach((panel, index) => {
    for (const [key, pattern, message] of CONTENT_RULES) {
      const text = panel[key];
      if (text !== undefined && pattern.test(text)) {
        report('MANIFEST_PANEL_CONTENT', `/admin/panels/${index}/${key}`, message);
      }
    }
  });
}
