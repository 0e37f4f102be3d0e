// The baseline: a bare node:http server with no framework, no auth, no
// database. GET /health answers a small fixed JSON; PUT /__payload/<name>
// stores bytes that GET /<name> then answers, so a scenario can compare the
// service with a server sending exactly the same bytes.
import http from 'node:http'

const payloads = new Map<string, Buffer>([['/health', Buffer.from('{"status":"ok"}')]])

const server = http.createServer((req, res) => {
  const url = req.url ?? '/'
  if (req.method === 'PUT' && url.startsWith('/__payload/')) {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      payloads.set(`/${url.slice('/__payload/'.length)}`, Buffer.concat(chunks))
      res.writeHead(204).end()
    })
    return
  }
  const body = payloads.get(url.split('?')[0]!)
  if (!body) return void res.writeHead(404).end()
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  res.end(body)
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address()
  console.log(`BARE_LISTENING ${typeof address === 'object' && address ? address.port : ''}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
