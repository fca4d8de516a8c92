/** The portal page: plain HTML + a little script over /webhook-portal/api (the token comes from the link). */
export const PORTAL_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Quire webhooks</title>
<style>body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}code{font-size:12px}form>*{margin:.2rem}</style>
</head><body><h1>Webhook endpoints</h1>
<p>Events are signed (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) with each endpoint's secret.</p>
<form id="add"><input name="url" placeholder="https://example.com/hooks" size="40" required>
<input name="description" placeholder="description"><span id="types"></span><button>Add endpoint</button></form>
<div id="err" style="color:#b00"></div><table><thead><tr><th>URL</th><th>Events</th><th>Secret</th><th></th></tr></thead><tbody id="list"></tbody></table>
<h2>Delivery log</h2><div id="log">Choose "log" on an endpoint.</div>
<script>
const token = new URLSearchParams(location.search).get('token');
const api = (p, o = {}) => fetch('webhook-portal/api' + p, { ...o, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' } })
  .then(async (r) => { const b = await r.json(); if (!r.ok) throw new Error(b.error ? b.error.message : r.status); return b; });
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const show = (e) => { document.getElementById('err').textContent = e.message; };
async function load() {
  const { endpoints } = await api('/endpoints');
  document.getElementById('list').innerHTML = endpoints.map((e) => '<tr><td>' + esc(e.url) + '<br><small>' + esc(e.description) + '</small></td><td>' +
    esc(e.event_types ? e.event_types.join(', ') : 'all') + '</td><td><code>' + esc(e.secret) + '</code></td><td>' +
    '<button data-a="test" data-id="' + e.id + '">test</button> <button data-a="log" data-id="' + e.id + '">log</button> <button data-a="del" data-id="' + e.id + '">delete</button></td></tr>').join('');
}
document.getElementById('list').onclick = async (ev) => {
  const b = ev.target.closest('button'); if (!b) return;
  try {
    if (b.dataset.a === 'test') await api('/endpoints/' + b.dataset.id + '/test', { method: 'POST' });
    if (b.dataset.a === 'del') { await api('/endpoints/' + b.dataset.id, { method: 'DELETE' }); await load(); }
    if (b.dataset.a === 'log' || b.dataset.a === 'test') {
      const { deliveries } = await api('/endpoints/' + b.dataset.id + '/deliveries');
      document.getElementById('log').innerHTML = '<table>' + deliveries.map((d) => '<tr><td>' + esc(d.created_at) + '</td><td>' + esc(d.event_type) + '</td><td>' + esc(d.status) +
        '</td><td>' + d.attempt_log.map((a) => esc(a.at) + ' → ' + esc(a.status_code === null ? a.error : a.status_code)).join('<br>') + '</td></tr>').join('') + '</table>';
    }
  } catch (e) { show(e); }
};
api('/event-types').then(({ event_types }) => { document.getElementById('types').innerHTML = event_types.map((t) => '<label><input type="checkbox" name="t" value="' + t + '">' + t + '</label>').join(' '); });
document.getElementById('add').onsubmit = async (ev) => {
  ev.preventDefault(); const f = new FormData(ev.target); const types = f.getAll('t');
  try { await api('/endpoints', { method: 'POST', body: JSON.stringify({ url: f.get('url'), description: f.get('description'), event_types: types.length ? types : null }) }); ev.target.reset(); await load(); } catch (e) { show(e); }
};
load().catch(show);
</script></body></html>`;
