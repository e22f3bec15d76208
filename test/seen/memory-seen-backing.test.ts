import { MemorySeenBacking } from '../../src/seen/memory-seen-backing.js';
import { describeSeenBacking } from './describe-seen-backing.js';

describeSeenBacking('MemorySeenBacking', async () => ({ set: new MemorySeenBacking(), close: async () => {} }));
