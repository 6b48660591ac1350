package evo

// evalCache holds the fitness contribution of each (cluster, member set)
// planned in an EVO operation: open addressing with linear probing, slots
// chosen by the key's hash words, which are already uniformly mixed. A
// slot is empty, queued (to be planned in the current evaluation) or
// planned.
type evalCache struct {
	slots []cacheSlot
	used  int
}

type cacheSlot struct {
	key   setKey
	state uint8 // slotEmpty, slotQueued, slotPlanned
	val   clusterEval
}

const (
	slotEmpty uint8 = iota
	slotQueued
	slotPlanned
)

// reserve makes room for extra more keys at a load factor of at most 1/2,
// so slot indices stay valid while they are added.
func (c *evalCache) reserve(extra int) {
	need := 2 * (c.used + extra)
	if need <= len(c.slots) {
		return
	}
	size := max(len(c.slots), 16)
	for size < need {
		size *= 2
	}
	old := c.slots
	c.slots = make([]cacheSlot, size)
	for _, sl := range old {
		if sl.state != slotEmpty {
			c.slots[c.find(sl.key)] = sl
		}
	}
}

// find returns the slot holding k, or the empty slot where k goes.
func (c *evalCache) find(k setKey) int {
	mask := uint64(len(c.slots) - 1)
	i := (k.h1 ^ k.h2>>32 ^ uint64(k.cluster)*0x9e3779b97f4a7c15) & mask
	for {
		sl := &c.slots[i]
		if sl.state == slotEmpty || sl.key == k {
			return int(i)
		}
		i = (i + 1) & mask
	}
}

// queue marks k to be planned and returns its slot, unless k is planned or
// queued already (ok = false).
func (c *evalCache) queue(k setKey) (slot int, ok bool) {
	i := c.find(k)
	sl := &c.slots[i]
	if sl.state != slotEmpty {
		return i, false
	}
	sl.key, sl.state = k, slotQueued
	c.used++
	return i, true
}

// get returns the contribution of a planned key.
func (c *evalCache) get(k setKey) clusterEval {
	return c.slots[c.find(k)].val
}
