declare const __EMAIL_CLI_VERSION__: string;

/** Set at build time from package.json; tests running the sources see the dev marker. */
export const CLI_VERSION: string = typeof __EMAIL_CLI_VERSION__ === 'string' ? __EMAIL_CLI_VERSION__ : '0.0.0-dev';
