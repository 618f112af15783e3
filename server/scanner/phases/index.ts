import type { PHASES } from '../../scans/phases.ts';
import type { Phase } from '../types.ts';
import { aiAnalysis } from './ai-analysis.ts';
import { cloudAnalysis, vulnerabilityScanning, webAnalysis } from './checks-phases.ts';
import { complianceMapping } from './compliance-mapping.ts';
import { correlation } from './correlation.ts';
import { discovery } from './discovery.ts';
import { enumeration } from './enumeration.ts';
import { remediationPlanning } from './remediation-planning.ts';
import { reporting } from './reporting.ts';
import { threatIntelligence } from './threat-intelligence.ts';

/** The module behind every phase name (decisions.md, "Scans"). */
export const PHASE_MODULES: Record<(typeof PHASES)[number], Phase> = {
  discovery,
  enumeration,
  vulnerability_scanning: vulnerabilityScanning,
  web_analysis: webAnalysis,
  cloud_analysis: cloudAnalysis,
  threat_intelligence: threatIntelligence,
  correlation,
  compliance_mapping: complianceMapping,
  ai_analysis: aiAnalysis,
  remediation_planning: remediationPlanning,
  reporting,
};
