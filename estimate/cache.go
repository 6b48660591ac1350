package estimate

// Cache keeps one value (an estimate, or an error factor) per recurring-job
// Key and counts how often a lookup found one. Hydra reuses the estimate of
// a recurring job instead of profiling it again. A Cache is not safe for
// concurrent use; the zero value is not usable, call NewCache.
type Cache[V any] struct {
	values       map[Key]V
	hits, misses int
}

// NewCache returns an empty cache.
func NewCache[V any]() *Cache[V] { return &Cache[V]{values: map[Key]V{}} }

// Get returns the value stored for k and whether there was one, counting a
// hit or a miss.
func (c *Cache[V]) Get(k Key) (V, bool) {
	v, ok := c.values[k]
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	return v, ok
}

// Put stores v for k, replacing any earlier value.
func (c *Cache[V]) Put(k Key, v V) { c.values[k] = v }

// CacheStats counts a cache's lookups.
type CacheStats struct {
	Hits, Misses int
	Keys         int // distinct keys stored
}

// Lookups is Hits + Misses.
func (s CacheStats) Lookups() int { return s.Hits + s.Misses }

// HitRate is Hits / Lookups, 0 when there was no lookup.
func (s CacheStats) HitRate() float64 {
	if s.Lookups() == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Lookups())
}

// Stats returns the lookup counts so far.
func (c *Cache[V]) Stats() CacheStats {
	return CacheStats{Hits: c.hits, Misses: c.misses, Keys: len(c.values)}
}
