"""A club's tables over MQTT: the broker, credentials, pairing, standings, director and reporter."""
