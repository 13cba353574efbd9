// Delivery signatures: an HMAC of the exact request body with the hook's secret, as
// receivers verify it (X-Hub-Signature-256; the SHA-1 X-Hub-Signature too, as upstream
// still sends it for older receivers).
import { createHmac } from 'node:crypto';

export function signatureHeaders(secret: string, body: string): Record<string, string> {
  return {
    'X-Hub-Signature': `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
    'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}
