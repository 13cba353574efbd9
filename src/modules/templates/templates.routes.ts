// /gitignore/templates, /gitignore/templates/{name}, /licenses, /licenses/{license}.
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { GitignoreTemplate, License, LicenseParams, LicenseSimpleList, ListLicensesQuery, TemplateNameParams } from './templates.schemas.ts';
import * as templates from './templates.service.ts';
import { gitignoreTemplateView, licenseSimpleOf, licenseView } from './templates.views.ts';

const TEXT = 'text/plain; charset=utf-8';

export function templatesRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/gitignore/templates', {
    schema: { response: { 200: Type.Array(Type.String()) } },
    config: { operationId: 'gitignore/get-all-templates' },
  }, async () => [...templates.listGitignoreTemplates()]);

  app.get('/gitignore/templates/:name', {
    schema: {
      params: TemplateNameParams,
      // The raw media type answers the file itself, as text.
      response: { 200: { content: { 'application/json': { schema: GitignoreTemplate }, 'text/plain': { schema: Type.String() } } } },
    },
    config: { operationId: 'gitignore/get-template' },
  }, async (request, reply) => {
    const t = templates.getGitignoreTemplate(request.params.name);
    if (request.media.param === 'raw') return reply.type(TEXT).send(t.source);
    return gitignoreTemplateView(t);
  });

  app.get('/licenses', {
    schema: { querystring: ListLicensesQuery, response: { 200: LicenseSimpleList } },
    config: { operationId: 'licenses/get-all-commonly-used' },
  }, async (request) => {
    const p = pageOf(request.query);
    const list = templates.listLicenses(request.query.featured);
    return paged(list.slice(p.offset, p.offset + p.perPage).map((l) => licenseSimpleOf(l, urls)), p, list.length);
  });

  app.get('/licenses/:license', {
    schema: { params: LicenseParams, response: { 200: License } },
    config: { operationId: 'licenses/get' },
  }, async (request) => licenseView(templates.getLicense(request.params.license), urls));
}
