// Search box of the shared order table: 500 ms debounce, no minimum length (spec §9); follows the URL's q.
import { useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback';

export const SEARCH_DEBOUNCE_MS = 500;

interface OrderSearchBoxProps {
  query: string;
  onSearch: (query: string) => void;
}

export function OrderSearchBox({ query, onSearch }: OrderSearchBoxProps) {
  const [value, setValue] = useState(query);
  const [syncedQuery, setSyncedQuery] = useState(query);
  // Back/forward can change the URL's q under us; the box follows it.
  if (query !== syncedQuery) {
    setSyncedQuery(query);
    setValue(query);
  }
  const search = useDebouncedCallback(onSearch, SEARCH_DEBOUNCE_MS);

  return (
    <TextField
      id="order-search"
      label="Search"
      type="search"
      size="small"
      value={value}
      onChange={(event) => {
        setValue(event.target.value);
        search(event.target.value);
      }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
      sx={{ minWidth: { xs: '100%', sm: 280 } }}
    />
  );
}
