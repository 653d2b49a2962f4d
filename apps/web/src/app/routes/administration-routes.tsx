// The administration pages (issue 10: reports, team, gateway, activity; issue 20: landing sites; issue 21: the
// Disputes report), a lazy chunk of their own: most sessions never open them, so the console's first load does not
// carry them. Guarded like every console page.
import { useParams } from 'react-router';
import { ActivityPage } from '../../features/activity/components/activity-page';
import { GatewaySettingPage } from '../../features/gateways/components/gateway-setting-page';
import { LandingSitesPage } from '../../features/landing-sites/components/landing-sites-page';
import { CountryReportPage } from '../../features/reports/components/country-report-page';
import { DisputesReportPage } from '../../features/reports/components/disputes-report-page';
import { ProcessedReportPage } from '../../features/reports/components/processed-report-page';
import { ManageTeamPage } from '../../features/team/components/manage-team-page';
import { RetentionPage } from '../../features/retention/components/retention-page';
import { SubjectRequestsPage } from '../../features/subject-requests/components/subject-requests-page';
import { Allowed, useStaffUser } from './staff-access';

export function CountryReportRoute() {
  return (
    <Allowed capability="viewCountryReport" title="Country Order Details">
      <CountryReportPage />
    </Allowed>
  );
}

export function ProcessedReportRoute() {
  return (
    <Allowed capability="viewProcessedOrders" title="Processed By">
      <ProcessedReportPage />
    </Allowed>
  );
}

export function DisputesReportRoute() {
  return (
    <Allowed capability="viewDisputesReport" title="Disputes Report">
      <DisputesReportPage />
    </Allowed>
  );
}

export function ManageTeamRoute() {
  const user = useStaffUser();
  const { teamMemberId } = useParams();
  return (
    <Allowed capability="manageTeam" title="Manage Team">
      <ManageTeamPage key={teamMemberId ?? 'new'} caller={user} teamMemberId={teamMemberId} />
    </Allowed>
  );
}

export function GatewaySettingRoute() {
  const user = useStaffUser();
  return (
    <Allowed capability="changeGateway" title="Change Gateway">
      <GatewaySettingPage callerType={user.type} />
    </Allowed>
  );
}

export function LandingSitesRoute() {
  return (
    <Allowed capability="manageLandingSites" title="Landing Sites">
      <LandingSitesPage />
    </Allowed>
  );
}

export function RetentionRoute() {
  return (
    <Allowed capability="manageRetention" title="Data Retention">
      <RetentionPage />
    </Allowed>
  );
}

export function SubjectRequestsRoute() {
  return (
    <Allowed capability="answerSubjectRequests" title="Customer Requests">
      <SubjectRequestsPage />
    </Allowed>
  );
}

export function ActivityRoute() {
  return (
    <Allowed capability="viewActivity" title="Activity">
      <ActivityPage />
    </Allowed>
  );
}
