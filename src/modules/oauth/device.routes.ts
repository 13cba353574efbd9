// The device flow: POST /login/device/code (for the device), GET/POST /login/device and
// POST /login/device/authorize (the pages where the signed-in user enters the code and
// approves). The device then polls POST /login/oauth/access_token (oauth-flow.routes.ts).
import type { FastifyInstance } from 'fastify';
import { registerFormBody } from '../../http/form-body.ts';
import type { Router } from '../../http/router.ts';
import { csrfValid, frameOf, redirectToLogin, registerPageScope, sendCsrfFailure, sendPage, sessionOf, PAGE } from '../web-session/web-request.ts';
import * as device from './device-flow.service.ts';
import { deviceApprovalPage, deviceDonePage, enterCodePage } from './device.pages.ts';
import { DeviceCodeBody, DeviceForm, DeviceQuery } from './oauth.schemas.ts';
import { renderFields, tokenFields, tokenFormatOf } from './token-response.views.ts';

const EXPIRED = 'That code is not valid: it may have expired or been used already. Check the code on your device.';

export function deviceRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerFormBody(scope);
    const r = scope as unknown as Router;

    // Like the token endpoint: form-urlencoded unless Accept asks for JSON or XML (gh reads the form).
    r.post('/login/device/code', {
      schema: { body: DeviceCodeBody }, config: { rawResponse: true, rateLimit: 'none', operationId: 'wharf/oauth-device-code' },
    }, async (request, reply) => {
      const result = await device.requestDeviceCode(request.server.ctx, request.body);
      const fields = 'kind' in result ? tokenFields(result) : { ...result };
      const { type, body } = renderFields(fields, tokenFormatOf(request.headers.accept));
      return reply.type(type).header('cache-control', 'no-store').send(body);
    });
  });

  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/login/device', { schema: { querystring: DeviceQuery }, config: { ...PAGE, operationId: 'wharf/device-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return sendPage(reply, enterCodePage(frameOf(session, 'Device activation'), request.query.user_code ?? ''));
    });

    r.post('/login/device', { schema: { body: DeviceForm }, config: { ...PAGE, operationId: 'wharf/device-enter-code' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const typed = request.body.user_code ?? '';
      const pending = await device.findPendingRequest(request.server.ctx, typed);
      if (!pending) return sendPage(reply.code(404), enterCodePage(frameOf(session, 'Device activation'), typed, EXPIRED));
      return sendPage(reply, deviceApprovalPage(frameOf(session, `Authorize ${pending.app.name}`), pending));
    });

    r.post('/login/device/authorize', { schema: { body: DeviceForm }, config: { ...PAGE, operationId: 'wharf/device-authorize' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const approve = request.body.authorize === '1';
      const typed = request.body.user_code ?? '';
      if (!await device.decide(request.server.ctx, session.user.id, typed, approve)) {
        return sendPage(reply.code(404), enterCodePage(frameOf(session, 'Device activation'), typed, EXPIRED));
      }
      return sendPage(reply, deviceDonePage(frameOf(session, approve ? 'Device connected' : 'Access denied'), approve));
    });
  });
}
