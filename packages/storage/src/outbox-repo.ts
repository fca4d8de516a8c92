import type { SqlClient } from './sql-client.js';
import type { OutboxEvent } from './records.js';

/** Reads the transactional outbox (written by JobRepo); the webhook dispatcher marks deliveries. */
export class OutboxRepo {
  constructor(private readonly db: SqlClient) {}

  async listForJob(jobId: string): Promise<OutboxEvent[]> {
    return (await this.db.query<OutboxEvent>('SELECT * FROM outbox WHERE job_id = $1 ORDER BY id', [jobId])).rows;
  }

  async listUndelivered(limit = 100): Promise<OutboxEvent[]> {
    return (await this.db.query<OutboxEvent>('SELECT * FROM outbox WHERE delivered_at IS NULL ORDER BY id LIMIT $1', [limit])).rows;
  }

  async markDelivered(id: number): Promise<void> {
    await this.db.query('UPDATE outbox SET delivered_at = now() WHERE id = $1', [id]);
  }
}
