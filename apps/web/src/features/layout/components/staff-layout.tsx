// The console's frame: header, side menu (a drawer that opens and closes below 991 px) and the content area.
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { FolderCounts } from '@eta/contracts';
import type { SessionUser } from '../../../lib/auth/session';
import { useLogout } from '../../../lib/auth/use-logout';
import { AppHeader } from './app-header';
import { SideNav } from './side-nav';

const DRAWER_WIDTH = 260;
const NARROW_SCREEN = '(max-width: 990.98px)';

interface StaffLayoutProps {
  user: SessionUser;
  counts: FolderCounts | undefined;
  children: ReactNode;
}

export function StaffLayout({ user, counts, children }: StaffLayoutProps) {
  const isNarrow = useMediaQuery(NARROW_SCREEN);
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const logout = useLogout();
  const closeMenu = () => setIsMenuOpen(false);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppHeader
        userName={user.name}
        showMenuButton={isNarrow}
        isMenuOpen={isMenuOpen}
        onToggleMenu={() => setIsMenuOpen((open) => !open)}
        onLogout={logout}
      />
      <Drawer
        variant={isNarrow ? 'temporary' : 'permanent'}
        open={isNarrow ? isMenuOpen : true}
        onClose={closeMenu}
        ModalProps={{ keepMounted: true }}
        sx={{
          width: isNarrow ? undefined : DRAWER_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
        }}
      >
        <Toolbar />
        <SideNav role={user.type} counts={counts} onNavigate={isNarrow ? closeMenu : undefined} onLogout={logout} />
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 }, bgcolor: 'grey.50' }}>
        <Toolbar />
        {children}
      </Box>
    </Box>
  );
}
