import { eq } from "drizzle-orm";
import type { Executor } from "../client";
import { type ProviderSettingId, type ProviderSettingRow, providerSetting } from "../schema";

export async function listProviderSettings(db: Executor): Promise<ProviderSettingRow[]> {
  return db.select().from(providerSetting).orderBy(providerSetting.provider);
}

export async function upsertProviderSetting(
  db: Executor,
  values: Omit<ProviderSettingRow, "updatedAt">,
): Promise<ProviderSettingRow> {
  const { provider, ...rest } = values;
  const [row] = await db
    .insert(providerSetting)
    .values({ ...values, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: providerSetting.provider,
      set: { ...rest, updatedAt: new Date() },
    })
    .returning();
  return row;
}

export async function deleteProviderSetting(
  db: Executor,
  { provider }: { provider: ProviderSettingId },
): Promise<boolean> {
  const rows = await db
    .delete(providerSetting)
    .where(eq(providerSetting.provider, provider))
    .returning({ provider: providerSetting.provider });
  return rows.length > 0;
}
