// Makes a site's intake key (the first, or a rotation) and holds the whole key only in this hook's state until the
// person closes its dialog. The server shows a key once and keeps only its hash, so the key is not left in the
// store either: the mutation's result is removed from it as soon as it is read.
import { useState } from 'react';
import type { IntakeKeyCreated } from '@eta/contracts';
import { useCreateIntakeKeyMutation } from '../api/landing-sites-api';

export interface CreatedIntakeKey extends IntakeKeyCreated {
  siteName: string;
  /** How long the keys it replaced keep working (0: they stopped at once). */
  graceMinutes: number;
}

export function useCreateIntakeKey() {
  const [createKey, { isLoading }] = useCreateIntakeKeyMutation();
  const [created, setCreated] = useState<CreatedIntakeKey | null>(null);

  /** True when the key was made (the list reloads); a refusal was shown as the server's message. */
  const create = async (site: { key: string; display_name: string }, graceMinutes = 0): Promise<boolean> => {
    const request = createKey({ site: site.key, graceMinutes });
    try {
      const result = await request.unwrap();
      setCreated({ ...result, siteName: site.display_name, graceMinutes });
      return true;
    } catch {
      // The API layer showed the server's message.
      return false;
    } finally {
      request.reset();
    }
  };

  return { create, isCreating: isLoading, created, forget: () => setCreated(null) };
}
