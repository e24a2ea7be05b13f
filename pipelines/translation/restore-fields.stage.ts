import { defineStage } from '../define-stage.js';
import { checkJob, restore, restoreJob } from '../../shared/translation/index.js';

/** Puts the protected spans back into each translation and records lost, repeated or invented placeholders. Pure over the chunk. Job id: restore-fields-<tenant>-<run>-<chunk>. */
export const restoreFields = defineStage({
  ...restoreJob,
  async run({ data, next }) {
    const items = data.items.map(({ masked: _m, tokens, output, ...i }) => {
      if (output === undefined) return i;
      const r = restore(output, tokens ?? []);
      return { ...i, restored: r.text, report: { missing: r.missing, repeated: r.repeated, unknown: r.unknown } };
    });
    await next(checkJob, { ...data, items });
    return { restored: items.filter((i) => i.restored !== undefined).length };
  },
});
