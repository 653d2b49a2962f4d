// Side menu: the links this role may see, each with its folder count, and Logout at the bottom.
import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import LogoutIcon from '@mui/icons-material/Logout';
import type { FolderCounts, StaffType } from '@eta/contracts';
import { paths } from '../../../config/paths';
import { navItemsFor, type NavItem } from '../nav-items';

interface SideNavProps {
  role: StaffType;
  counts: FolderCounts | undefined;
  onNavigate?: () => void;
  onLogout: () => void;
}

function isActive(item: NavItem, pathname: string): boolean {
  if (item.path === paths.dashboard) return pathname === item.path || pathname === `${item.path}/`;
  return pathname === item.path || pathname.startsWith(`${item.path}/`);
}

export function SideNav({ role, counts, onNavigate, onLogout }: SideNavProps) {
  const { pathname } = useLocation();

  return (
    <Box component="nav" aria-label="Main menu" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <List dense sx={{ flexGrow: 1, overflowY: 'auto' }}>
        {navItemsFor(role).map((item) => {
          const active = isActive(item, pathname);
          const count = item.countKey ? counts?.[item.countKey] : undefined;
          return (
            <ListItemButton
              key={item.path}
              component={RouterLink}
              to={item.path}
              selected={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
            >
              <ListItemText primary={item.label} />
              {count !== undefined ? <Chip size="small" label={count} color={active ? 'primary' : 'default'} /> : null}
            </ListItemButton>
          );
        })}
      </List>
      <Divider />
      <List dense>
        <ListItemButton onClick={onLogout}>
          <ListItemIcon sx={{ minWidth: 32 }}>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Logout" />
        </ListItemButton>
      </List>
    </Box>
  );
}
