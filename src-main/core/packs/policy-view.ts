/**
 * The sandbox profile of a skill's tools as the scan report and the update diff show it, asked of
 * the policy itself (core/policy/profile.ts), so the rule that picks and compares profiles is one.
 */
import type { SandboxProfile } from '../../shared/runs.js';
import { describeProfile, profileFor, widens } from '../policy/profile.js';
import type { PolicyView, ProfileView } from './scan.js';

const asProfile = (view: ProfileView): SandboxProfile => ({ name: view.name as SandboxProfile['name'], network: view.network, hosts: view.hosts });

/** The policy's view for packs: a skill is installed contained (only the person can unsandbox it later). */
export const packPolicy: PolicyView = {
  profileOf(skill) {
    const profile = profileFor(skill, false);
    return { name: profile.name, network: profile.network, hosts: profile.hosts, text: describeProfile(profile) };
  },
  widens: (after, before) => widens(asProfile(after), asProfile(before)),
};
