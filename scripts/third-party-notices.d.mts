export function bundledPackageDirs(metafile: { inputs: Record<string, unknown> }): string[];
export function thirdPartyNotices(root: string, metafile: { inputs: Record<string, unknown> }): string;
