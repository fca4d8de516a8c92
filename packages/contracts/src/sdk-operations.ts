/**
 * Every operation of the service the SDK (packages/sdk) covers, kept here so that the OpenAPI document's SDK
 * snippets name the same methods: "METHOD /path" (OpenAPI path syntax) → the Quire method that
 * calls it. A test checks this table against the served /openapi.json and the client's methods, so a new route
 * without a client method, or a renamed method, fails the suite. The legacy routes map to the method doing the same
 * through the current route (/extract_async = /extract with async; /cancel/{id} = DELETE /job/{id}).
 */
export const SDK_OPERATIONS = {
  'POST /extract': 'extract',
  'POST /extract_async': 'startExtract',
  'POST /classify': 'classify',
  'POST /schema': 'schema',
  'POST /tables': 'tables',
  'POST /charts': 'charts',
  'POST /split': 'split',
  'POST /batch/extract': 'batchExtract',
  'POST /batch/schema': 'batchSchema',
  'POST /batch/tables': 'batchTables',
  'POST /batch/split': 'batchSplit',
  'POST /form/detect': 'formDetect',
  'POST /form/fill': 'formFill',
  'POST /form/clear': 'formClear',
  'GET /job/{jobId}': 'getJob',
  'DELETE /job/{jobId}': 'cancelJob',
  'POST /cancel/{jobId}': 'cancelJob',
  'GET /job/{jobId}/events': 'jobEvents',
  'GET /results/{jobId}': 'getResult',
  'GET /results/{jobId}/pdf': 'downloadPdf',
  'GET /results/{jobId}/images/{filename}': 'downloadImage',
  'GET /results/{jobId}/pages/{page}.png': 'downloadPageImage',
  'POST /webhook': 'webhookPortal',
  'GET /usage': 'usage',
  'POST /convert': 'convert',
} as const;
