// Landing Sites calls (Admin, issue 20): every site with its legal texts and working intake keys, one old version
// of the texts, a new intake key and a new version of the texts. Both changes reload the list.
import type {
  ApiEnvelope,
  IntakeKeyBody,
  IntakeKeyCreated,
  LandingSiteAdmin,
  LegalTextVersion,
  SaveLegalTextBody,
} from '@eta/contracts';
import { api } from '../../../lib/api';

export interface LegalTextArgs {
  site: string;
  version: number;
}

export const landingSitesApi = api.injectEndpoints({
  endpoints: (build) => ({
    landingSites: build.query<LandingSiteAdmin[], void>({
      query: () => ({ url: 'admin/landing-sites' }),
      transformResponse: (body: ApiEnvelope<LandingSiteAdmin[]>) => body.data!,
      providesTags: ['LandingSites'],
    }),
    legalText: build.query<LegalTextVersion, LegalTextArgs>({
      query: ({ site, version }) => ({ url: `admin/landing-sites/${encodeURIComponent(site)}/legal/${version}` }),
      transformResponse: (body: ApiEnvelope<LegalTextVersion>) => body.data!,
    }),
    // The answer holds the whole key: the page takes it out of the store at once (see useCreateIntakeKey).
    createIntakeKey: build.mutation<IntakeKeyCreated, IntakeKeyBody & { site: string }>({
      query: ({ site, ...body }) => ({
        url: `admin/landing-sites/${encodeURIComponent(site)}/intake-key`,
        method: 'POST',
        body,
      }),
      transformResponse: (body: ApiEnvelope<IntakeKeyCreated>) => body.data!,
      invalidatesTags: ['LandingSites'],
    }),
    saveLegalText: build.mutation<string, SaveLegalTextBody & { site: string }>({
      query: ({ site, ...body }) => ({
        url: `admin/landing-sites/${encodeURIComponent(site)}/legal`,
        method: 'POST',
        body,
      }),
      transformResponse: (body: ApiEnvelope<{ version: number }>) => body.message,
      invalidatesTags: ['LandingSites'],
    }),
  }),
});

export const { useLandingSitesQuery, useLegalTextQuery, useCreateIntakeKeyMutation, useSaveLegalTextMutation } =
  landingSitesApi;
