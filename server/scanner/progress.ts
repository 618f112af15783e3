import type { PhaseProgress } from './types.ts';

/**
 * Turns work done inside phases into the scan's `progress` (0–100). Each phase
 * owns a share proportional to its weight; inside a phase, progress follows
 * the units of work it declared. The figure never falls, and stays below 100
 * until the scan is complete.
 */
export class ProgressTracker {
  private readonly totalWeight: number;
  private completedWeight = 0;
  private phaseWeight = 0;
  private units = { done: 0, total: 0 };
  private highest = 0;
  currentTool: string | undefined;

  constructor(
    weights: readonly number[],
    completedWeight: number,
    private readonly onChange: () => void,
  ) {
    this.totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
    this.completedWeight = completedWeight;
    this.highest = this.compute();
  }

  startPhase(weight: number): PhaseProgress {
    this.phaseWeight = weight;
    this.units = { done: 0, total: 0 };
    this.currentTool = undefined;
    this.onChange();
    return {
      setTotal: (units) => {
        this.units.total = Math.max(units, this.units.done);
        this.onChange();
      },
      advance: (units = 1) => {
        this.units.done = Math.min(this.units.done + units, this.units.total || this.units.done + units);
        this.onChange();
      },
      tool: (name) => {
        this.currentTool = name;
        this.onChange();
      },
    };
  }

  finishPhase(): void {
    this.completedWeight += this.phaseWeight;
    this.phaseWeight = 0;
    this.units = { done: 0, total: 0 };
    this.onChange();
  }

  private compute(): number {
    const inPhase = this.units.total > 0 ? (this.phaseWeight * this.units.done) / this.units.total : 0;
    return Math.floor((99 * (this.completedWeight + inPhase)) / this.totalWeight);
  }

  /** Current progress: monotonic, at most 99 (100 is written only with `complete`). */
  get value(): number {
    this.highest = Math.max(this.highest, Math.min(99, this.compute()));
    return this.highest;
  }
}
