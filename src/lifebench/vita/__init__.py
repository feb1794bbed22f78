"""VitaBench suite: delivery (and, later, in-store, OTA, cross-scenario) on the lifebench core."""
