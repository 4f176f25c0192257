// Files through the gateway on the default store: GridFS in the owning services' databases.
import { fileSuite } from './support/file-suite.ts';

fileSuite('gw_files', 'GridFS (the services’ own databases)', () => ({}));
