/** The package's licence (SPDX), which the published documents (OpenAPI, AsyncAPI) are under. */
export const PACKAGE_LICENSE = 'MIT';
