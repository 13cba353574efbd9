// Which repository names are acceptable: upstream's characters (letters, digits,
// '.', '-', '_'), at most 100 of them, not '.' or '..', and no '.git' suffix.
import { ValidationError } from '../../domain/errors.ts';

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export function validateRepoName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || name.trim() === '') throw ValidationError.field('Repository', field, 'missing_field');
  if (!NAME.test(name) || name === '.' || name === '..' || name.toLowerCase().endsWith('.git')) {
    throw new ValidationError([{
      resource: 'Repository', field, code: 'custom', value: name,
      message: 'name may only contain letters, digits, ".", "-" and "_", at most 100 characters, and may not end in ".git"',
    }]);
  }
  return name;
}
