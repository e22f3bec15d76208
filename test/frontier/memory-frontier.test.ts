import { MemoryFrontier } from '../../src/frontier/memory-frontier.js';
import { describeFrontier } from './describe-frontier.js';

describeFrontier('MemoryFrontier', async (p) => new MemoryFrontier(p));
