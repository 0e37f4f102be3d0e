// A second reference: Fastify with no plugins, hooks, auth or database,
// answering the bare server's small fixed JSON. It shows how much of the gap to
// the bare server is the framework itself.
import Fastify from 'fastify'

const app = Fastify()
app.get('/health', async () => ({ status: 'ok' }))
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
const address = app.server.address()
console.log(`BARE_LISTENING ${typeof address === 'object' && address ? address.port : ''}`)
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
