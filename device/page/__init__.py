"""The players' page: its server, its guard, its buckets, the phones and the results they see."""
