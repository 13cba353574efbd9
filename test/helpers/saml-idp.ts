// A SAML identity provider for tests: its own key and self-signed certificate (made
// with openssl), and responses it signs with xml-crypto, as a real one would. With the
// sign-in steps of an organization's SSO driven through a WebClient.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import type { TestServer } from './server.ts';
import { csrfIn, type WebClient, type WebResponse } from './web.ts';
import { requestJson } from './json-request.ts';

export interface KeyPair { key: string; cert: string }

export function makeKeyPair(): KeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem'),
      '-days', '3650', '-subj', '/CN=test-idp'], { stdio: 'ignore' });
    return { key: fs.readFileSync(path.join(dir, 'k.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'c.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface ResponseOptions {
  requestId: string;
  nameId: string;
  /** The organization's service provider: audience is its entity id. */
  org: string;
  now: Date;
  audience?: string;
  /** Seconds the assertion stays valid from `now`. */
  validSeconds?: number;
  /** Sign with this key instead of the identity provider's. */
  signingKey?: string;
  /** Name another issuer than the identity provider's entity id. */
  issuer?: string;
}

export class TestIdp {
  readonly entityId = `https://idp.example.test/${randomBytes(4).toString('hex')}`;
  readonly ssoUrl = 'https://idp.example.test/sso';
  constructor(readonly keys: KeyPair = makeKeyPair()) {}

  /** A base64 SAMLResponse with a signed assertion, as posted to the assertion consumer service. */
  response(t: TestServer, o: ResponseOptions): string {
    const sp = `${t.baseUrl}/orgs/${o.org}`;
    const acs = `${sp}/saml/consume`;
    const now = iso(o.now);
    const until = iso(new Date(o.now.getTime() + (o.validSeconds ?? 300) * 1000));
    const notBefore = iso(new Date(o.now.getTime() - 5000));
    const id = () => `_${randomBytes(12).toString('hex')}`;
    const issuer = o.issuer ?? this.entityId;
    const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${now}" Destination="${acs}" InResponseTo="${o.requestId}">`
      + `<saml:Issuer>${issuer}</saml:Issuer>`
      + '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>'
      + `<saml:Assertion ID="${id()}" Version="2.0" IssueInstant="${now}"><saml:Issuer>${issuer}</saml:Issuer>`
      + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.nameId}</saml:NameID>`
      + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${o.requestId}" NotOnOrAfter="${until}" Recipient="${acs}"/></saml:SubjectConfirmation></saml:Subject>`
      + `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${o.audience ?? sp}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
      + `<saml:AuthnStatement AuthnInstant="${now}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
      + '</saml:Assertion></samlp:Response>';
    const sig = new SignedXml({
      privateKey: o.signingKey ?? this.keys.key,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
    return Buffer.from(sig.getSignedXml()).toString('base64');
  }
}

/** Turns SSO on for the organization with the identity provider's settings (as its owner). */
export async function enableSso(t: TestServer, org: string, ownerToken: string, idp: TestIdp): Promise<void> {
  const res = await requestJson(t, 'PUT', `/orgs/${org}/sso/configuration`, ownerToken, { idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, certificate: idp.keys.cert });
  if (res.status !== 200) throw new Error(`enabling SSO failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export interface StartedLogin { requestId: string; relayState: string | null; location: string }

/** Follows GET `pathname` (an /orgs/{org}/sso address) to the identity provider; the AuthnRequest it carries. */
export async function startLogin(web: WebClient, pathname: string): Promise<StartedLogin> {
  const res = await web.get(pathname);
  if (res.status !== 302 || !res.location?.startsWith('https://idp.example.test/sso')) throw new Error(`no redirect to the IdP: ${res.status} ${res.location} ${res.body.slice(0, 300)}`);
  const url = new URL(res.location);
  const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return { requestId: /ID="([^"]+)"/.exec(request)![1]!, relayState: url.searchParams.get('RelayState'), location: res.location };
}

export function postResponse(web: WebClient, org: string, samlResponse: string, relayState: string | null): Promise<WebResponse> {
  return web.post(`/orgs/${org}/saml/consume`, { SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
}

/** Signs the browser in at the organization's identity provider as `nameId`; the answer to the posted response. */
export async function ssoSignIn(t: TestServer, web: WebClient, idp: TestIdp, org: string, nameId: string, now: Date): Promise<WebResponse> {
  const login = await startLogin(web, `/orgs/${org}/sso`);
  return postResponse(web, org, idp.response(t, { requestId: login.requestId, nameId, org, now }), login.relayState);
}

/** The SSO header's authorization address of a refused token, followed to the authorize form and submitted. */
export async function authorizeFromHeader(web: WebClient, ssoHeader: string): Promise<WebResponse> {
  const url = new URL(/url=(\S+)/.exec(ssoHeader)![1]!);
  const form = await web.get(`${url.pathname}${url.search}`);
  if (form.status !== 200) throw new Error(`no authorize form: ${form.status} ${form.location}`);
  const tokenId = /name="token_id" value="(\d+)"/.exec(form.body)![1]!;
  return web.post(url.pathname.replace(/\/sso$/, '/sso/authorize'), { authenticity_token: csrfIn(form.body), token_id: tokenId });
}
