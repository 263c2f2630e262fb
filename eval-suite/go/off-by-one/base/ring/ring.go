package ring

// Buffer keeps the last len(items) values pushed.
type Buffer struct {
	items []int
	next  int
	full  bool
}

// New returns a buffer holding at most size values.
func New(size int) *Buffer { return &Buffer{items: make([]int, size)} }

// Push stores v, overwriting the oldest value once the buffer is full.
func (b *Buffer) Push(v int) {
	b.items[b.next] = v
	b.next = (b.next + 1) % len(b.items)
	if b.next == 0 {
		b.full = true
	}
}
