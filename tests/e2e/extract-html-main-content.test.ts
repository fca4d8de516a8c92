import { startTestServer, formWith, type TestServer } from '../support/embedded.js';

const links = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/${prefix}/${i}">${prefix} link ${i}</a></li>`).join('');
const PAGE = `<!doctype html><html><body><nav><ul>${links('menu', 6)}</ul></nav>
  <article><h1>Harbour report</h1>${Array.from({ length: 4 }, (_, i) => `<p>Paragraph ${i + 1}: ships arrived, cargo was weighed, and the harbour master signed the log before noon.</p>`).join('')}</article>
  <footer>Copyright the harbour office</footer></body></html>`;

describe('embedded: extensions.html_main_content through HTTP', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(() => t.close());

  it('a full web page keeps its article by default and says what it left out; false reads it whole', async () => {
    const extract = async (fields: Record<string, string>) => {
      const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: new TextEncoder().encode(PAGE), name: 'page.html', type: 'text/html' }, fields) });
      expect(res.status).toBe(200);
      return (await res.json()) as { markdown: string; warnings?: string[]; extensions: { mainContent?: { mode: string; droppedBlocks: number } } };
    };
    const kept = await extract({});
    expect(kept.markdown).toContain('# Harbour report');
    expect(kept.markdown).not.toContain('menu link');
    expect(kept.extensions.mainContent).toMatchObject({ mode: 'article', droppedBlocks: 7 });
    expect(kept.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/left out 7 block/)]));
    const whole = await extract({ extensions: JSON.stringify({ html_main_content: false }) });
    expect(whole.markdown).toContain('menu link 5');
    expect(whole.markdown).toContain('Copyright the harbour office');
    expect(whole.extensions.mainContent).toBeUndefined();
  }, 120_000);
});
