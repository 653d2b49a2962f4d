// The pager under a list of the console (team, reports): wraps on a phone instead of pushing the page sideways.
import TablePagination from '@mui/material/TablePagination';

export function ListPagination(props: {
  count: number;
  page: number;
  limit: number;
  sizes: readonly number[];
  onPageChange: (page: number) => void;
  onLimitChange: (limit: number) => void;
}) {
  return (
    <TablePagination
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' } }}
      component="div"
      count={props.count}
      page={props.page}
      onPageChange={(_event, next) => props.onPageChange(next)}
      rowsPerPage={props.limit}
      rowsPerPageOptions={[...props.sizes]}
      onRowsPerPageChange={(event) => props.onLimitChange(Number(event.target.value))}
    />
  );
}
