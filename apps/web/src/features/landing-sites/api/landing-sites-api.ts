// Landing Sites calls (Admin, issue 20): every site with its legal texts and working intake keys, one old version
// of the texts, a new intake key and a new version of the texts; (issue 33) a new site, its branding and its logo.
// Every change reloads the list.
import type {
  ApiEnvelope,
  CreateLandingSiteBody,
  LandingSiteChange,
  SaveBrandingBody,
  IntakeKeyBody,
  IntakeKeyCreated,
  LandingSiteAdmin,
  LegalTextVersion,
  SaveLegalTextBody,
} from '@eta/contracts';
import { LOGO_FIELDS } from '@eta/contracts/domain';
import { api } from '../../../lib/api';

export interface LegalTextArgs {
  site: string;
  version: number;
}

/** A change's answer: the server's message (the toast) and the site as it is now. */
export interface SiteChangeOutcome {
  message: string;
  site: LandingSiteChange;
}

export interface LogoArgs {
  site: string;
  file: File;
  /** The site's version the Admin saw. */
  version: number;
}

const changeOutcome = (body: ApiEnvelope<LandingSiteChange>): SiteChangeOutcome => ({
  message: body.message,
  site: body.data!,
});

/** Multipart: the image and the version beside it (contracts LOGO_FIELDS). */
function logoForm({ file, version }: LogoArgs): FormData {
  const form = new FormData();
  form.append(LOGO_FIELDS.version, String(version));
  form.append(LOGO_FIELDS.file, file, file.name);
  return form;
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
    // A key or name another site has (409) is said at its field by the form, not in a toast as well.
    createLandingSite: build.mutation<SiteChangeOutcome, CreateLandingSiteBody>({
      query: (body) => ({
        url: 'admin/landing-sites',
        method: 'POST',
        body,
        silent: (error) => error.code === 'CONFLICT',
      }),
      transformResponse: changeOutcome,
      invalidatesTags: (result) => (result ? ['LandingSites'] : []),
    }),
    saveBranding: build.mutation<SiteChangeOutcome, SaveBrandingBody & { site: string }>({
      query: ({ site, ...body }) => ({
        url: `admin/landing-sites/${encodeURIComponent(site)}/branding`,
        method: 'PUT',
        body,
        silent: (error) => error.code === 'CONFLICT',
      }),
      transformResponse: changeOutcome,
      // A refusal reloads the list too: a stale page (409) shows what was saved meanwhile.
      invalidatesTags: ['LandingSites'],
    }),
    uploadLogo: build.mutation<SiteChangeOutcome, LogoArgs>({
      query: (args) => ({
        url: `admin/landing-sites/${encodeURIComponent(args.site)}/logo`,
        method: 'POST',
        body: logoForm(args),
      }),
      transformResponse: changeOutcome,
      invalidatesTags: ['LandingSites'],
    }),
  }),
});

export const {
  useLandingSitesQuery,
  useLegalTextQuery,
  useCreateIntakeKeyMutation,
  useSaveLegalTextMutation,
  useCreateLandingSiteMutation,
  useSaveBrandingMutation,
  useUploadLogoMutation,
} = landingSitesApi;
