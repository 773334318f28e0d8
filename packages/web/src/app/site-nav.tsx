import { signOut } from '@bvdb/contract';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { apiCall } from '../lib/api-client';
import { hasRole, isStaff, useInvalidateAfterSignInOrOut, useSession } from '../lib/session';
import { ADMINS } from '@bvdb/contract';
import { AnalyteSearch } from '../features/search/components/analyte-search';
import { NavMenu, NavMenuDivider, NavMenuLink } from './nav-menu';

const INFO_PAGES = [
  ['/about', 'About'],
  ['/eflm-wg', 'Publications'],
  ['/publication_structure', 'How to Write a Paper on BV'],
  ['/background', 'Background'],
  ['/disclaimer', 'Disclaimer'],
] as const;

/** The top navigation of spec section 2. */
export function SiteNav() {
  const session = useSession();
  const navigate = useNavigate();
  const invalidate = useInvalidateAfterSignInOrOut();
  // The collapsed menu of narrow screens closes when a link in it leads to another page.
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState(false);
  useEffect(() => setExpanded(false), [pathname]);
  const logout = async () => {
    try {
      await apiCall(signOut, { csrfToken: session.csrf_token });
      await invalidate();
      void navigate('/');
    } catch (err) {
      console.error('Logout failed', err);
    }
  };
  return (
    <header>
      <nav className="navbar navbar-expand-xl bg-primary mb-3" data-bs-theme="dark" aria-label="Main">
        <div className="container-fluid">
          <Link to="/" className="navbar-brand d-flex align-items-center gap-2">
            <img src="/logo.svg" alt="" width="32" height="32" />
            <span>BV Database</span>
          </Link>
          <button
            type="button"
            className={`navbar-toggler${expanded ? '' : ' collapsed'}`}
            aria-controls="main-nav"
            aria-expanded={expanded}
            aria-label="Toggle navigation"
            onClick={() => setExpanded((e) => !e)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div id="main-nav" className={`collapse navbar-collapse${expanded ? ' show' : ''}`}>
            <ul className="navbar-nav me-auto flex-wrap">
              <NavMenu title="BV Data">
                <NavMenuLink to="/references">By Reference</NavMenuLink>
                <NavMenuLink to="/bv_specifications/measurand">By Measurands</NavMenuLink>
                <NavMenuLink to="/matrices">List of Matricies</NavMenuLink>
                <NavMenuLink to="/meta_calculations">List of BV estimates</NavMenuLink>
                <NavMenuLink to="/bv_specifications">All BV Data</NavMenuLink>
                <NavMenuLink to="/applications">BV and performance specifications</NavMenuLink>
                <NavMenuLink to="/releases">Releases</NavMenuLink>
                <NavMenuLink to="/applications/menu">Your test menu</NavMenuLink>
              </NavMenu>
              {session.user && !isStaff(session) ? (
                // An assessor's one page of their own; staff find it in their account menu (the
                // navigation stays one row at 1200 px).
                <li className="nav-item">
                  <Link className="nav-link" to="/appraisals">
                    My appraisals
                  </Link>
                </li>
              ) : null}
              {isStaff(session) ? (
                <NavMenu title="Administration">
                  <NavMenuLink to="/bv_specifications/new">Enter New BIVAC Dataset</NavMenuLink>
                  <NavMenuLink to="/bv_specifications/upload">Upload Datasets from a Spreadsheet</NavMenuLink>
                  <NavMenuLink to="/references/new">Enter New Reference</NavMenuLink>
                  <NavMenuLink to="/references/import">Import References from a Citation File</NavMenuLink>
                  <NavMenuLink to="/analyte_filter">Filter and Manage Data by Dataset</NavMenuLink>
                  <NavMenuLink to="/reference_filter">Filter and Manage Data by Reference</NavMenuLink>
                  <NavMenuLink to="/units">Units</NavMenuLink>
                  <NavMenuDivider />
                  <NavMenuLink to="/dashboard">Dashboard</NavMenuLink>
                  <NavMenuLink to="/admin/import">Import a Database</NavMenuLink>
                  <NavMenuLink to="/jobs">Job Tracker</NavMenuLink>
                  <NavMenuLink to="/meta_jobs">Meta Job Progress</NavMenuLink>
                  <NavMenuLink to="/meta_simulator">Meta Calculation Simulator</NavMenuLink>
                  <NavMenuLink to="/meta_checker">Meta-calculation Checker</NavMenuLink>
                  <NavMenuLink to="/input_tables">Input Tables</NavMenuLink>
                  <NavMenuDivider />
                  <NavMenuLink to="/appraisals/board">Appraisal Board</NavMenuLink>
                  {hasRole(session, ADMINS) ? (
                    <>
                      <NavMenuLink to="/appraisals/agreement">Appraisal Agreement</NavMenuLink>
                      <NavMenuLink to="/users">Users</NavMenuLink>
                    </>
                  ) : null}
                  <NavMenuDivider />
                  <NavMenuLink to="/mailing_list">Mailing List</NavMenuLink>
                </NavMenu>
              ) : null}
              <NavMenu title="Calculators">
                <NavMenuLink to="/calculators/aps">Analytical Performance Specification</NavMenuLink>
                <NavMenuLink to="/calculators/rcv">Reference Change Value</NavMenuLink>
                <NavMenuLink to="/calculators/rcv-application">Application of the RCV</NavMenuLink>
                <NavMenuLink to="/calculators/individuality">Individuality and set point</NavMenuLink>
                <NavMenuLink to="/estimate">Estimate BV from raw results</NavMenuLink>
                <NavMenuLink to="/indirect">Estimate BV from routine results</NavMenuLink>
              </NavMenu>
              <NavMenu title="More">
                {INFO_PAGES.map(([to, label]) => (
                  <NavMenuLink key={to} to={to}>
                    {label}
                  </NavMenuLink>
                ))}
              </NavMenu>
            </ul>
            <div className="my-2 my-xl-0 me-xl-3 nav-search">
              <AnalyteSearch />
            </div>
            <ul className="navbar-nav">
              {session.user ? (
                <NavMenu title={session.user.name ?? session.user.email} end>
                  {isStaff(session) ? <NavMenuLink to="/appraisals">My appraisals</NavMenuLink> : null}
                  <NavMenuLink to="/users/edit">Change Password</NavMenuLink>
                  <li>
                    <button type="button" className="dropdown-item" onClick={() => void logout()}>
                      Logout
                    </button>
                  </li>
                </NavMenu>
              ) : (
                <li className="nav-item">
                  <Link className="nav-link" to="/users/sign_in">
                    Login
                  </Link>
                </li>
              )}
            </ul>
          </div>
        </div>
      </nav>
    </header>
  );
}
