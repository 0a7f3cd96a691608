'use strict'
// A JSON:API server made with jsonapi-server (npm, MIT), for
// TestNextInBodyJSONAPIServer: node server.js PORT COUNT serves COUNT
// articles, with ids a0001, a0002, ..., at http://127.0.0.1:PORT/rest/articles
// from its in-memory store, paged with page[offset] and page[limit] and
// absolute pagination links in the body (links.next), as the package writes
// them. It listens on 127.0.0.1 only. jsonapi-server is found through
// NODE_PATH.
const http = require('http')
const express = require('express')
const jsonApi = require('jsonapi-server')

const port = parseInt(process.argv[2], 10)
const count = parseInt(process.argv[3], 10)
const app = express()
jsonApi.setConfig({ protocol: 'http', hostname: '127.0.0.1', port: port, base: 'rest', router: app })
const examples = []
for (let i = 1; i <= count; i++) {
  examples.push({ id: 'a' + String(i).padStart(4, '0'), type: 'articles', title: 'article ' + i })
}
jsonApi.define({
  resource: 'articles',
  handlers: new jsonApi.MemoryHandler(),
  attributes: { title: jsonApi.Joi.string() },
  examples: examples
})
jsonApi.start()
http.createServer(app).listen(port, '127.0.0.1')
