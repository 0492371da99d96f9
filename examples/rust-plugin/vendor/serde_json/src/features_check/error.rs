"serde_json requires that either `std` (default) or `alloc` feature is enabled"
