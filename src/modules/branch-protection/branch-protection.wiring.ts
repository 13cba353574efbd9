// The branch-protection module's part of the wiring: the repos module asks it, through
// a provider, whether an organization ruleset protects a repository's name.
import type { EventBus } from '../../events/bus.ts';
import { renameRefusal } from './ref-rules.service.ts';

export function register(bus: EventBus): void {
  bus.provide('repositoryRenameRefusal', { refusal: renameRefusal });
}
