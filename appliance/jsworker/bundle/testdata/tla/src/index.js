const config = await Promise.resolve({ ok: true });

export default { config };
