/**
 * `npm run fake:webhook-receiver -- --port 4020 --secret whsec_...`: a webhook receiver on
 * 127.0.0.1 to try a company's webhooks against (docs/product.md "Webhooks"). Start the server with
 * WEBHOOK_ALLOW_LOOPBACK=true, add an endpoint with the URL printed here, and start this again
 * with the secret the endpoint's creation showed. Every request is printed on one line: its event
 * type, its `webhook-id`, and whether its signature verified with the `standardwebhooks` library
 * (which also refuses a `webhook-timestamp` more than 5 minutes away). It answers 204, or the
 * status given with --status (500 to watch the retries).
 * Options: --port (default 4020), --secret (without it nothing verifies), --status (default 204).
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const usage = 'Usage: npm run fake:webhook-receiver -- [--port 4020] [--secret whsec_...] [--status 204]';

let args: { port: string; secret?: string; status: string };
try {
  args = parseArgs({ options: { port: { type: 'string', default: '4020' }, secret: { type: 'string' }, status: { type: 'string', default: '204' } } }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const port = Number(args.port);
const status = Number(args.status);
if (!Number.isInteger(port) || port < 1 || port > 65535 || !Number.isInteger(status) || status < 100 || status > 599) {
  console.error(usage);
  process.exit(2);
}
let webhook: Webhook | undefined;
try {
  webhook = args.secret ? new Webhook(args.secret) : undefined;
} catch {
  console.error(`--secret is not a Standard Webhooks secret (whsec_ and base64)\n${usage}`);
  process.exit(2);
}

/** Whether `body` with `headers` carries a valid signature of the secret, and why not. */
function verification(body: string, headers: http.IncomingHttpHeaders): string {
  if (!webhook) return 'not verified (no --secret)';
  try {
    webhook.verify(body, headers as Record<string, string>);
    return 'signature verified';
  } catch (err) {
    return `SIGNATURE REFUSED: ${(err as Error).message}`;
  }
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let type = '(not JSON)';
    try {
      type = String((JSON.parse(body) as { type?: unknown }).type);
    } catch {
      // printed as such
    }
    console.log(`${new Date().toISOString()} ${req.method} ${req.url} ${type} webhook-id=${String(req.headers['webhook-id'])} ${verification(body, req.headers)} -> ${status}`);
    res.writeHead(status).end();
  });
});
server.listen(port, '127.0.0.1', () => console.log(`Webhook receiver on http://127.0.0.1:${port}/ (answers ${status})`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
