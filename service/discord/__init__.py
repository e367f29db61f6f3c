"""The Discord bot: what each command answers (``commands``), its embeds, the per-server settings,
the gateway client and the signed HTTP interactions endpoint."""
