export declare const EXPORT_GOALS: { ratio: number; rateMbit: number; peakMB: number; growthMB: number };
export declare function exportGoalsLine(results: { size: number; ratio?: number; peak: number }[], rateMbit: number | undefined): string;
