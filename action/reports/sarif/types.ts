import type * as Sarif from 'sarif';

// What the SARIF builders write: the @types/sarif shapes, with the fields it always sets made required.
export type SarifLevel = Extract<Sarif.Result.level, 'error' | 'warning' | 'note'>;

export interface SarifLog extends Sarif.Log {
  runs: SarifRun[];
}

export interface SarifRun extends Sarif.Run {
  tool: { driver: Sarif.ToolComponent & { version: string; informationUri: string; rules: SarifRule[] } };
  automationDetails: Sarif.RunAutomationDetails & { id: string };
  invocations: Sarif.Invocation[];
  results: SarifResult[];
  columnKind: 'utf16CodeUnits';
  properties: Sarif.PropertyBag;
}

export interface SarifRule extends Sarif.ReportingDescriptor {
  name: string;
  shortDescription: Sarif.MultiformatMessageString;
  fullDescription: Sarif.MultiformatMessageString;
  defaultConfiguration: Sarif.ReportingConfiguration & { level: SarifLevel };
  help: Sarif.MultiformatMessageString & { markdown: string };
  properties: Sarif.PropertyBag & { tags: string[] };
}

export interface SarifLocation extends Sarif.Location {
  physicalLocation: Sarif.PhysicalLocation & {
    artifactLocation: Sarif.ArtifactLocation & { uri: string; uriBaseId: string };
    region: Sarif.Region;
  };
  message: Sarif.Message & { text: string };
}

export interface SarifResult extends Sarif.Result {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: Sarif.Message & { text: string };
  locations: SarifLocation[];
  partialFingerprints: Record<string, string>;
  properties: Sarif.PropertyBag;
}
